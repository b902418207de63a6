// Placeholder main until the conformance runner lands.
print("promise-conformance: not built yet")
