package trace

// ToJPEG is toJPEG, for the benchmarks.
var ToJPEG = toJPEG
