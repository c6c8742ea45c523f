package platform

import (
	"slices"
	"testing"
)

func TestCallingCodes(t *testing.T) {
	for in, want := range map[string][]string{
		"":              nil,
		"976":           {"976"},
		" +976 , 7 ,, ": {"976", "7"},
	} {
		if got := callingCodes(in); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}
