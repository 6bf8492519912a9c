package envs

// registerGamesPuzzle registers the built-in envs of this family.
func registerGamesPuzzle(r *Registry) error {
	return nil
}
