package policy

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The block table names every field of a block once, and Specs spells a
// model's parameters as checkpoints and the PyTorch reference
// (scripts/torchref/torch_ref.py) have always named them, in that order.
func TestBlockTable(t *testing.T) {
	var b block[int]
	params := b.params(8)
	require.Len(t, params, reflect.TypeFor[block[int]]().NumField(), "one row per field")
	for i, p := range params {
		*p.field = i + 1
	}
	v := reflect.ValueOf(b)
	for i := 0; i < v.NumField(); i++ {
		assert.Equal(t, int64(i+1), v.Field(i).Int(), "field %s is row %d of the table", v.Type().Field(i).Name, i)
	}

	var names []string
	for _, s := range Specs(Config{Vocab: 5, Context: 4, Layers: 2, DModel: 8, Heads: 2}) {
		names = append(names, s.Name)
	}
	block := func(l string) []string {
		return []string{l + "ln1.g", l + "ln1.b", l + "wq", l + "bq", l + "wk", l + "bk", l + "wv", l + "bv",
			l + "wo", l + "bo", l + "ln2.g", l + "ln2.b", l + "w1", l + "b1", l + "w2", l + "b2"}
	}
	want := append([]string{"tok_emb", "pos_emb"}, block("h0.")...)
	want = append(append(want, block("h1.")...), "lnf.g", "lnf.b", "wout", "bout")
	assert.Equal(t, want, names)

	// loadBlock reads each field by its full name
	got := loadBlock(1, 8, func(name string) string { return name })
	assert.Equal(t, "h1.ln2.g", got.ln2g)
	assert.Equal(t, "h1.w2", got.w2)
}
