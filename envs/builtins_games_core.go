package envs

// registerGamesCore registers the built-in envs of this family.
func registerGamesCore(r *Registry) error {
	return nil
}
