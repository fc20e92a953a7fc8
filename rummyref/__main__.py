from rummyref.cli import main

main()
