"""One Shiny module per workbench page."""
