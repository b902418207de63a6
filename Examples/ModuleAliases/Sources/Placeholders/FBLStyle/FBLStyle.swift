// Deliberately empty. Its name, `FBLStyle`, is what lets promises-import name the aliased style `Promises`
// (see Package.swift).
