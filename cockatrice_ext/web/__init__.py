"""The live web view beside the games: public boards and private pages, served by the bot itself."""
