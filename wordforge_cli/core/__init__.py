"""The ground every layer stands on: errors and their exit statuses, messages on stderr, seeded
random streams, the statistics protocol, signals and progress bars of the process."""
