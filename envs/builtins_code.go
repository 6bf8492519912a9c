package envs

// registerCode registers the built-in envs of this family.
func registerCode(r *Registry) error {
	return nil
}
