package mathtask

import "testing"

func benchEquivalent(b *testing.B, pred, gold string) {
	b.ReportAllocs()
	for b.Loop() {
		Equivalent(pred, gold)
	}
}

func BenchmarkEquivalentInteger(b *testing.B) { benchEquivalent(b, `\boxed{1,000}`, "#### 1000") }
func BenchmarkEquivalentFrac(b *testing.B)    { benchEquivalent(b, `\boxed{-\dfrac{3}{4}}`, "-0.75") }
func BenchmarkEquivalentText(b *testing.B)    { benchEquivalent(b, `\boxed{\sqrt{2}}`, `\sqrt2`) }
