"""Party mode (``parlour serve --lan``): a server for the people in one room, on this
machine's address on its local network, and on nothing wider.

The address is checked before anything is bound: a public address is refused (``--lan`` is
not a way to put a site on the internet: that is ``--host`` with ``--allowed-host`` and
``--origin``, behind a proxy with TLS, ``docs/deploy.md``), and so is any address that is
not one machine's (``0.0.0.0``, a broadcast or multicast address). Without an address, this
machine's own is found without sending anything anywhere: connecting a UDP socket only asks
the kernel which of our addresses its routes would send from.

>>> lan_address("192.168.1.20"), lan_address("127.0.0.2"), lan_address("fd12::7")
('192.168.1.20', '127.0.0.2', 'fd12::7')
>>> lan_address("8.8.8.8")
Traceback (most recent call last):
...
ValueError: --lan serves a local network only, and 8.8.8.8 is not a private address (...
"""

from __future__ import annotations

import ipaddress
import socket

#: Where this machine's routes to a local network would go: asked, never sent to.
PROBES: tuple[str, ...] = ("192.168.255.255", "10.255.255.255", "172.31.255.255")
#: What to say when no local address is found.
NOT_FOUND = ("--lan found no address of this machine on a local network (is it on one?): "
             "give it, as parlour serve --lan 192.168.1.20")


def lan_address(address: str) -> str:
    """``address`` in its normal form if ``--lan`` may serve on it: private, loopback or
    IPv4 link-local (as :mod:`ipaddress` classes them), one machine's; else
    :class:`ValueError` with one line saying why."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        raise ValueError(f"--lan wants this machine's address on its local network, as "
                         f"numbers (e.g. 192.168.1.20), not {address!r}") from None
    if ip.is_unspecified or ip.is_multicast or (ip.is_reserved and not ip.is_loopback):
        raise ValueError(f"--lan serves on one address of this machine, and {ip} is not one "
                         "(give its address on the local network, e.g. 192.168.1.20)")
    if ip.version == 6 and ip.is_link_local:
        raise ValueError(f"{ip} is an IPv6 link-local address, which a phone's browser "
                         "cannot open: give this machine's IPv4 address on the network")
    if not (ip.is_private or ip.is_loopback or ip.is_link_local):
        raise ValueError(f"--lan serves a local network only, and {ip} is not a private "
                         "address (a site on the internet: --host, --allowed-host and "
                         "--origin, docs/deploy.md)")
    return str(ip)


def local_address() -> str:
    """This machine's address on its local network (not loopback), found from its routes
    without sending a packet; :class:`ValueError` (:data:`NOT_FOUND`) if it has none."""
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))  # UDP: no packet leaves, the route is looked up
                found = str(udp.getsockname()[0])
            except OSError:  # no route to that network
                continue
        try:
            if not ipaddress.ip_address(found).is_loopback:
                return lan_address(found)
        except ValueError:  # a public address: not a local network's
            continue
    raise ValueError(NOT_FOUND)
