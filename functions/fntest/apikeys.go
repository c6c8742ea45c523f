package fntest

import (
	"context"
	"testing"

	"github.com/rs/zerolog"

	"tenger/internal/apikey"
	"tenger/internal/auth"
	"tenger/internal/store"
)

// APIKeys is the API key service on st with the secrets sealed as the
// functions seal them (platform.Deps.APIKeys: secretKey, purpose
// "tenger-apikey-v1"), so a function built with the same secret key opens
// them; unlike the profile function's, it makes keys without the e-mail
// code, for users that need not exist.
func APIKeys(t testing.TB, st store.Store, secretKey []byte) *apikey.Service {
	t.Helper()
	sealer, err := auth.NewSealer(secretKey, "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	return apikey.New(apikey.Options{Store: st, Auth: noCodes{}, Sealer: sealer, Log: zerolog.Nop()})
}

// noCodes is an accounts service whose users have no second factor.
type noCodes struct{}

func (noCodes) User(_ context.Context, uid string) (auth.User, error) { return auth.User{ID: uid}, nil }

func (noCodes) VerifyAll(context.Context, string, ...auth.Factor) error { return nil }
