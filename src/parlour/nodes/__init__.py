"""Several nodes, one site: table leases and messages between nodes, over Redis.

This layer knows Redis and the shapes of the messages nodes send each other; it knows
nothing of the web. :mod:`parlour.web.relay` puts it to work.
"""
