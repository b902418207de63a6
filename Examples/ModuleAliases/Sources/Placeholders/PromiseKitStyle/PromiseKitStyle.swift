// Deliberately empty: this module only takes the name `PromiseKitStyle` inside this package, so that the targets that
// depend on it may write `import PromiseKit` for the aliased style (see Package.swift).
