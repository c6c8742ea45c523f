package platform

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/push"
)

// userDisconnects records DisconnectUser calls; err is what they return.
type userDisconnects struct {
	push.Pusher
	users []string
	err   error
}

func (u *userDisconnects) DisconnectUser(_ context.Context, userID string) error {
	u.users = append(u.users, userID)
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
	d.disconnectUser(context.Background(), "10000001") // no push port: nothing to close

	p := &userDisconnects{}
	d.Push = p
	d.disconnectUser(context.Background(), "10000001")
	if len(p.users) != 1 || p.users[0] != "10000001" {
		t.Fatalf("DisconnectUser calls %q", p.users)
	}
	if logs.Len() != 0 {
		t.Fatalf("logged %s", logs.String())
	}
	p.err = errors.New("management API down")
	d.disconnectUser(context.Background(), "10000002")
	if !strings.Contains(logs.String(), "management API down") || !strings.Contains(logs.String(), "10000002") {
		t.Fatalf("failure not logged: %q", logs.String())
	}
}
