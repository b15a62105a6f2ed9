"""File writers: Cockatrice, Forge, MTGO, Arena, text."""
