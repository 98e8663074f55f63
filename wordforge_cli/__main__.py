from wordforge_cli.cli import main

main()
