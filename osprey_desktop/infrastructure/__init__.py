"""Infrastructure nodes of the agent graph (router, task extraction, classification, ...).

Import the node modules directly (``osprey_desktop.infrastructure.router_node``); this package
stays import-light so the decorators and capabilities can use its helpers without cycles.
"""
