"""LLM plumbing shared by the gemini stages: settings, clients, retries, prompts and usage accounting.

Importing this package imports no SDK; `engine.llm.clients` does, on first use.
"""
