"""Tenant isolation: adversarial suite (library and DLS modes) and DLS credentials."""
