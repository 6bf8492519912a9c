// Package atomicfile is gemgo's one way of writing a file that readers and
// crashes must see whole: metrics, report pages, checkpoints and the run
// directory's files all go through WriteFile.
//
// It is a leaf package (it imports only the standard library), so every
// package of the module can use it without an import cycle.
package atomicfile
