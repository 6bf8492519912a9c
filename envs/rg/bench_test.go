package rg_test

import (
	"testing"

	"github.com/gemgo/gemgo/envs"
	"github.com/gemgo/gemgo/envs/rg"
)

// benchEpisode measures one Reset plus one scored Step of id.
func benchEpisode(b *testing.B, id string) {
	r := envs.NewRegistry()
	if err := rg.Register(r); err != nil {
		b.Fatal(err)
	}
	e, err := r.Make(id)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		if _, _, err := e.Reset(seed); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Step(`so the answer is \boxed{42}`); err != nil {
			b.Fatal(err)
		}
		seed++
	}
}

func BenchmarkEpisodeBasicArithmetic(b *testing.B) { benchEpisode(b, "rg:basic_arithmetic") }
func BenchmarkEpisodeNumberSorting(b *testing.B)   { benchEpisode(b, "rg:number_sorting") }
func BenchmarkEpisodeCaesarCipher(b *testing.B)    { benchEpisode(b, "rg:caesar_cipher") }
