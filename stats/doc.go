// Package stats is the statistics that compare and eval report with:
// summaries over seeds or episodes (mean, sample std and a seeded
// percentile-bootstrap interval of the mean: Summarize, BootstrapCI,
// Quantile), the paired permutation (sign-flip) test of per-seed
// differences with its smallest attainable p-value (PairedTest,
// MinPairedP), and the unbiased pass@k estimator (PassAtK).
//
// Every function is pure: the resamples' randomness comes from the rng
// the caller passes, so the same seed gives the same interval. The tests
// pin exact values computed by hand.
package stats
