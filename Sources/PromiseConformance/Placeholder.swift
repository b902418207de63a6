/// Placeholder until the PromiseConformance module lands; replaced by its real sources.
public enum PromiseConformancePlaceholder {}
