from wordforge_cli.signals import entry

entry()
