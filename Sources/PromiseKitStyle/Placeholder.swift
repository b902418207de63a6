/// Placeholder until the PromiseKitStyle module lands; replaced by its real sources.
public enum PromiseKitStylePlaceholder {}
