from rummyref.cli.app import main

main()
