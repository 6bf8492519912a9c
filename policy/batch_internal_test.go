package policy

import "testing"

func TestBucketLen(t *testing.T) {
	for _, c := range []struct{ n, context, want int }{
		{1, 128, 8}, {8, 128, 8}, {9, 128, 16}, {16, 128, 16}, {17, 128, 32},
		{32, 128, 32}, {33, 128, 48}, {40, 128, 48}, {48, 128, 48}, {49, 128, 64},
		{100, 128, 112}, {127, 128, 128}, {128, 128, 128}, {33, 36, 36}, {36, 36, 36},
		// packed sequences longer than the context: multiples of 16
		{37, 36, 48}, {40, 36, 48}, {5, 4, 16}, {129, 128, 144},
	} {
		if got := bucketLen(c.n, c.context); got != c.want {
			t.Errorf("bucketLen(%d, %d) = %d, want %d", c.n, c.context, got, c.want)
		}
	}
}

func TestBucketBatch(t *testing.T) {
	for n, want := range map[int]int{1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 64: 64, 65: 128} {
		if got := bucketBatch(n); got != want {
			t.Errorf("bucketBatch(%d) = %d, want %d", n, got, want)
		}
	}
}
