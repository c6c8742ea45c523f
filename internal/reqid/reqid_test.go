package reqid

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	for id, want := range map[string]bool{"": true, "ab-1_2.X": true, strings.Repeat("a", 8): true, strings.Repeat("a", 9): false,
		"a b": false, "a/b": false, "ж": false, "a\x00": false} {
		if got := Valid(id, 8); got != want {
			t.Errorf("Valid(%q) = %v", id, got)
		}
	}
}
