import Testing

@testable import FBLStyle

/// All FBLStyle tests, serialized: `waitForPromises(timeout:)` waits on one process-wide group, so no other test of
/// this module may hold pending promises while a group-sensitive test runs.
@Suite(.serialized) struct FBLStyleTests {}
