"""Agent configuration and assembly: settings, providers, model tiers, prompts and the injected
bundle.
"""
