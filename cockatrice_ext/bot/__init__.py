"""The referee bot: adapts chat and game events to format engines."""
