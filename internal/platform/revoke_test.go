package platform

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/auth"
	"tenger/internal/push"
)

// userDisconnects records DisconnectUser calls and which of the sessions
// s1, s2 each ended; err is what they return.
type userDisconnects struct {
	push.Pusher
	users []string
	ended [][]string
	err   error
}

func (u *userDisconnects) DisconnectUser(_ context.Context, userID string, ended func(string) bool) error {
	u.users = append(u.users, userID)
	var e []string
	for _, s := range []string{"s1", "s2"} {
		if ended(s) {
			e = append(e, s)
		}
	}
	u.ended = append(u.ended, e)
	return u.err
}

// The auth service's revocation hook closes the user's connections through
// the push port set on Deps (even when it was set after Auth was built),
// logs a failure instead of returning it, and does nothing without a port.
func TestRevocationDisconnectsUser(t *testing.T) {
	var logs bytes.Buffer
	d := &Deps{Log: zerolog.New(&logs)}
	if d.Auth() == nil {
		t.Fatal("no auth service")
	}
	d.disconnectUser(context.Background(), auth.Revoked{UserID: "10000001"}) // no push port: nothing to close

	p := &userDisconnects{}
	d.Push = p
	d.disconnectUser(context.Background(), auth.Revoked{UserID: "10000001", Session: "s2"})
	if len(p.users) != 1 || p.users[0] != "10000001" || len(p.ended[0]) != 1 || p.ended[0][0] != "s2" {
		t.Fatalf("DisconnectUser calls %q ending %q, want 10000001 ending s2 only", p.users, p.ended)
	}
	if logs.Len() != 0 {
		t.Fatalf("logged %s", logs.String())
	}
	p.err = errors.New("management API down")
	d.disconnectUser(context.Background(), auth.Revoked{UserID: "10000002"})
	if !strings.Contains(logs.String(), "management API down") || !strings.Contains(logs.String(), "10000002") {
		t.Fatalf("failure not logged: %q", logs.String())
	}
}
