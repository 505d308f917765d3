"""Hosts: the storage and retrieval the state layer wraps (its own store, or mem0)."""

from stateledger.hosts.base import Host, HostTurn, SeedHit
from stateledger.hosts.native import StoreHost

__all__ = ["Host", "HostTurn", "SeedHit", "StoreHost"]
