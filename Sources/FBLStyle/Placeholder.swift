/// Placeholder until the FBLStyle module lands; replaced by its real sources.
public enum FBLStylePlaceholder {}
