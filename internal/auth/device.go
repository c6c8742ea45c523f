package auth

import (
	"context"
	"errors"
	"time"

	"tenger/internal/store"
)

// Trusted devices.
//
// Failed sign-ins of an account lock it for everyone (Limits.LoginFailures
// within Limits.LoginWindow), whoever makes them: anyone who knows an
// e-mail address could keep its owner out. A browser that completed a
// sign-in of an account therefore gets a device token (the API keeps it in
// an HttpOnly cookie). A sign-in that presents the token of the account it
// signs in to is counted against that device alone, so the owner's own
// browser keeps working while the account is locked for every other one,
// and wrong passwords typed on it lock only it. The token proves nothing
// else: the password and the second step are asked for as always.

// DeviceTTL is how long a device stays trusted after the sign-in that
// made it so.
const DeviceTTL = 180 * 24 * time.Hour

func deviceKey(hash string) store.Key { return store.Key{PK: "DEVICE#" + hash, SK: "DEVICE"} }

// deviceOf returns the hash of token when it was issued to a sign-in of uid
// and has not expired; "" otherwise.
func (s *Service) deviceOf(ctx context.Context, token, uid string) (string, error) {
	if len(token) != 64 || uid == "" {
		return "", nil
	}
	hash := hashToken(token)
	it, err := s.st.Get(ctx, deviceKey(hash))
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if it.Str(attrUID) != uid || it.Int("expiresAt") <= s.now().UnixMilli() {
		return "", nil
	}
	return hash, nil
}

// trustDevice returns a new device token of u for the response, or "" when
// the caller's token already is one (it then stays as it is). untrusted says
// the caller has looked the token up already and found it is not.
func (s *Service) trustDevice(ctx context.Context, u User, m Meta, untrusted bool) (string, error) {
	if !untrusted {
		if hash, err := s.deviceOf(ctx, m.DeviceToken, u.ID); err != nil || hash != "" {
			return "", err
		}
	}
	token, hash := newToken()
	now := s.now()
	k := deviceKey(hash)
	err := s.st.Put(ctx, store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK, attrUID: u.ID, "createdAt": now.UnixMilli(),
		"expiresAt": now.Add(DeviceTTL).UnixMilli(), store.AttrTTL: ttlAt(now.Add(DeviceTTL)),
	}, store.ItemNotExists())
	if err != nil {
		return "", err
	}
	return token, nil
}
