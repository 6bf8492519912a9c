package envs

// registerGamesWord registers the built-in envs of this family.
func registerGamesWord(r *Registry) error {
	return nil
}
