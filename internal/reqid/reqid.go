// Package reqid checks the ids clients give their requests to make them
// idempotent (requestId, clientOid): a retry with the same id is applied
// once.
package reqid

// Valid reports whether id is at most max characters of letters, digits,
// '-', '_' and '.' (empty is valid: no id).
func Valid(id string, max int) bool {
	if len(id) > max {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
