"""The pdfrag workbench: a multi-page Shiny app over the engine (`pdfrag serve` starts it)."""
