/// Placeholder until the BoltsStyle module lands; replaced by its real sources.
public enum BoltsStylePlaceholder {}
