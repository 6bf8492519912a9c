// Package crosswords is GEM's Crosswords game: fill a small generated
// crossword from its clues, one letter per turn.
//
// Ids: game:Crosswords-v0-easy (3 words, 30 turns, each clue shows its
// length), game:Crosswords-v0-hard (3 words, 40 turns, no lengths) and
// game:Crosswords-v0-random (easy or hard, drawn on each Reset).
//
// Each Reset builds a new grid from the embedded clue list (package words):
// the first word goes across, and each next word crosses a word already
// placed, at a shared letter and at right angles, never running alongside
// another word, so every letter cell reads the same in both words through
// it.
//
// The action is the last \boxed{row col letter} of the response, 0-indexed
// (commas and parentheses are allowed: \boxed{(1, 2) E}). A box that does
// not hold two whole numbers and one letter a–z is a format error (reward
// envs.RewardFormatError, the episode terminates). A cell outside the grid,
// a black cell or a cell already filled is an invalid move (reward 0, a
// message, the episode goes on); a wrong letter scores 0 and is not
// written. Each correct letter earns 1/letter_cells, so filling the grid
// totals 1.0 and ends the episode. Every step counts towards the turn
// limit; reaching it truncates the episode with that step's reward.
//
// Options: style ("gem" or "brief"), max_turns (default: the level's),
// view ("grid", GEM's, or "cells": each clue followed by its cells, see
// ViewCells) and sample ("any", GEM's random letter in a random empty
// cell, or "first": a teacher for a warm-up, see SetSample).
package crosswords
