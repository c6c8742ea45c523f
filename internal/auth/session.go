package auth

import (
	"context"
	"errors"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Session is a resolved, valid session.
type Session struct {
	UserID string
	// ID is the SHA-256 of the token (safe to log and to keep in memory).
	ID string
}

func sessionKey(hash string) store.Key { return store.Key{PK: "SESSION#" + hash, SK: "SESSION"} }

// newSession stores a session for u and returns its token.
func (s *Service) newSession(ctx context.Context, u User, m Meta) (string, error) {
	token, hash := newToken()
	now := s.now()
	k := sessionKey(hash)
	it := store.Item{
		store.AttrPK: k.PK, store.AttrSK: k.SK,
		attrUID: u.ID, "gen": u.SessGen, "createdAt": now.UnixMilli(),
		"expiresAt": now.Add(SessionTTL).UnixMilli(), "ip": m.IP, "device": clip(m.Device, 128),
		store.AttrTTL: ttlAt(now.Add(SessionTTL)),
	}
	if err := s.st.Put(ctx, it, store.ItemNotExists()); err != nil {
		return "", internal(err)
	}
	return token, nil
}

// Authenticate resolves a session token. Unknown, expired and revoked
// tokens, and sessions ended by a password change, are CodeNotSignedIn.
func (s *Service) Authenticate(ctx context.Context, token string) (Session, error) {
	if len(token) != 64 {
		return Session{}, apperr.New(apperr.CodeNotSignedIn)
	}
	hash := hashToken(token)
	now := s.now()
	if uid, ok := s.sessions.get(hash, now); ok {
		return Session{UserID: uid, ID: hash}, nil
	}
	// Taken before the reads: a revocation that happens while they run
	// keeps what they saw out of the cache.
	epoch := s.sessions.begin()
	it, err := s.st.Get(ctx, sessionKey(hash))
	if errors.Is(err, store.ErrNotFound) {
		return Session{}, apperr.New(apperr.CodeNotSignedIn)
	}
	if err != nil {
		return Session{}, internal(err)
	}
	if it.Int("expiresAt") <= now.UnixMilli() {
		return Session{}, apperr.New(apperr.CodeNotSignedIn)
	}
	u, err := s.getUser(ctx, it.Str(attrUID))
	if err != nil {
		return Session{}, err
	}
	// The cancellation raised the generation too; the check of the
	// profile's mark stands on its own should a session ever be made
	// without it.
	if it.Int("gen") != u.SessGen || u.CancelledMs != 0 {
		return Session{}, apperr.New(apperr.CodeNotSignedIn)
	}
	s.sessions.put(hash, u.ID, it.Int("expiresAt"), now, epoch)
	return Session{UserID: u.ID, ID: hash}, nil
}

// Logout revokes the caller's session.
func (s *Service) Logout(ctx context.Context, m Meta) error {
	if m.SessionID == "" {
		return nil
	}
	err := s.st.Delete(ctx, sessionKey(m.SessionID), nil)
	// Forgotten even when the delete failed: it may still have happened.
	s.sessions.revoke(m.SessionID)
	if err != nil {
		return internal(err)
	}
	if m.UserID != "" {
		s.recordHistory(ctx, m.UserID, histLogin, actLogout, m)
		s.revoked(ctx, Revoked{UserID: m.UserID, Session: m.SessionID})
	}
	return nil
}

// Revoked names the sessions of a user that have ended: the one Session
// (a sign-out), or every session but Keep (a password change keeps the
// session that made it; a reset keeps none). Sessions are named by their
// id (Session.ID), never by their token.
type Revoked struct {
	UserID        string
	Session, Keep string
}

// Ended reports whether the session with this id is one of those ended.
// A connection bound without a session ("") ends with every session of
// its user, but not with a single sign-out.
func (r Revoked) Ended(sessionID string) bool {
	if r.Session != "" {
		return sessionID == r.Session
	}
	return sessionID != r.Keep || sessionID == ""
}

// revoked tells Options.OnRevoke which sessions have ended. The request's
// cancellation does not stop it: the client may hang up as soon as it has
// sent its sign-out.
func (s *Service) revoked(ctx context.Context, r Revoked) {
	if s.onRevoke != nil {
		s.onRevoke(context.WithoutCancel(ctx), r)
	}
}

// endOtherSessions returns the operations that end every session of u except
// the current one (when the caller has one): raise the generation and move
// the current session to it. cond guards the profile update.
func endOtherSessions(u User, m Meta, upd *store.Update, profileCond store.Cond) []store.Op {
	next := u.SessGen + 1
	upd.Set(attrSessGen, next)
	genCond := genIs(u.SessGen)
	if profileCond != nil {
		genCond = store.And(genCond, profileCond)
	}
	ops := []store.Op{store.UpdateOp(profileKey(u.ID), upd, genCond)}
	if m.SessionID != "" {
		ops = append(ops, store.UpdateOp(sessionKey(m.SessionID), store.NewUpdate().Set("gen", next),
			store.And(store.ItemExists(), store.Eq(attrUID, u.ID))))
	}
	return ops
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// genIs holds while the profile's session generation is still g.
func genIs(g int64) store.Cond {
	if g == 0 {
		return store.Or(store.NotExists(attrSessGen), store.Eq(attrSessGen, 0))
	}
	return store.Eq(attrSessGen, g)
}
