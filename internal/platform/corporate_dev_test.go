package platform

import (
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/httpapi"
)

// The dev reviewer of corporate verification is mounted with --dev only,
// beside the corporate calls, as the other /dev routes are.
func TestCorporateDevReviewerOnlyWithDev(t *testing.T) {
	for _, dev := range []bool{false, true} {
		l, err := OpenLocal(t.TempDir(), Config{Dev: dev}, zerolog.Nop())
		if err != nil {
			t.Fatal(err)
		}
		area := l.ProfileArea()
		if !serves(area, httpapi.PathCorpGetBaseInfo) {
			t.Fatalf("dev=%v: the corporate calls are not served", dev)
		}
		if got := serves(area, httpapi.PathDevCorpReview); got != dev {
			t.Fatalf("dev=%v: %s served = %v", dev, httpapi.PathDevCorpReview, got)
		}
		_ = l.Close()
	}
}
