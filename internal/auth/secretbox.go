package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// LoadOrCreateKey reads the hex key in path, creating it (32 random bytes,
// mode 0600) on first use. `tenger serve` keeps it in its data directory;
// the AWS runtime passes a key from its secret store instead.
func LoadOrCreateKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		key, derr := hex.DecodeString(strings.TrimSpace(string(b)))
		if derr != nil || len(key) < 16 {
			return nil, fmt.Errorf("auth: key file %s is not a hex key", path)
		}
		return key, nil
	}
	if !os.IsNotExist(err) {
		return nil, fmt.Errorf("auth: read key: %w", err)
	}
	key := randBytes(32)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("auth: key dir: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if os.IsExist(err) {
		return LoadOrCreateKey(path) // another process created it first
	}
	if err != nil {
		return nil, fmt.Errorf("auth: create key: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("auth: write key: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("auth: sync key: %w", err)
	}
	return key, f.Close()
}

// secretBox seals TOTP secrets at rest with AES-256-GCM. Sealed values are
// "g1:<base64(nonce|ciphertext)>"; without a key values are kept as
// "p:<secret>" so a key can be introduced later.
//
// The key may be a key ring: keys separated by white space, the first the
// current one. Seal uses the current key; Open tries each (GCM's tag tells
// the right one), so a key is rotated by putting a new one first and keeping
// the old ones behind it while secrets sealed with them remain.
type secretBox struct{ aeads []cipher.AEAD }

func newSecretBox(key []byte) secretBox { return newSecretBoxFor(key, "tenger-auth-totp-v1") }

// newSecretBoxFor derives the box's key from key and a purpose label, so
// secrets of different purposes sealed with one key cannot be swapped for
// each other.
func newSecretBoxFor(key []byte, purpose string) secretBox {
	var b secretBox
	for _, one := range KeyRing(key) {
		k := sha256.Sum256(append([]byte(purpose+"|"), one...))
		block, err := aes.NewCipher(k[:])
		if err != nil {
			panic(err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			panic(err)
		}
		b.aeads = append(b.aeads, aead)
	}
	return b
}

// KeyRing splits a key into its keys. A text key of letters and digits
// (the AWS auth key secret) may hold several separated by white space, the
// current one first; any other key (a local key file's random bytes) is
// one key, as it is.
func KeyRing(key []byte) [][]byte {
	if len(key) == 0 {
		return nil
	}
	for _, c := range key {
		alnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alnum && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return [][]byte{key}
		}
	}
	var out [][]byte
	for _, f := range strings.Fields(string(key)) {
		out = append(out, []byte(f))
	}
	return out
}

func (b secretBox) seal(plain string) string {
	if len(b.aeads) == 0 {
		return "p:" + plain
	}
	aead := b.aeads[0]
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic("auth: no randomness: " + err.Error())
	}
	return "g1:" + base64.RawStdEncoding.EncodeToString(aead.Seal(nonce, nonce, []byte(plain), nil))
}

func (b secretBox) open(sealed string) (string, error) {
	switch {
	case strings.HasPrefix(sealed, "p:"):
		return sealed[2:], nil
	case strings.HasPrefix(sealed, "g1:"):
		if len(b.aeads) == 0 {
			return "", errors.New("auth: sealed secret but no key configured")
		}
		raw, err := base64.RawStdEncoding.DecodeString(sealed[3:])
		n := b.aeads[0].NonceSize()
		if err != nil || len(raw) < n {
			return "", errors.New("auth: corrupt sealed secret")
		}
		for _, aead := range b.aeads {
			if plain, err := aead.Open(nil, raw[:n], raw[n:], nil); err == nil {
				return string(plain), nil
			}
		}
		return "", errors.New("auth: cannot open sealed secret")
	}
	return "", errors.New("auth: unknown secret format")
}

// Sealer seals secrets another service keeps at rest (API keys' HMAC
// secrets) as authenticator secrets are sealed: AES-256-GCM under a key
// derived from the process's secret key and the purpose. Unlike those, it
// needs a key: a service that must be able to use its secrets again (HMAC)
// but never show them is pointless without one.
type Sealer struct{ box secretBox }

// NewSealer returns a Sealer for one purpose (e.g. "tenger-apikey-v1").
func NewSealer(key []byte, purpose string) (Sealer, error) {
	if len(key) < 16 {
		return Sealer{}, errors.New("auth: a sealer needs a secret key of at least 16 bytes")
	}
	return Sealer{box: newSecretBoxFor(key, purpose)}, nil
}

// Seal returns plain sealed ("g1:…").
func (s Sealer) Seal(plain string) string { return s.box.seal(plain) }

// Open returns the secret Seal sealed; plain ("p:") values are refused.
func (s Sealer) Open(sealed string) (string, error) {
	if !strings.HasPrefix(sealed, "g1:") {
		return "", errors.New("auth: not a sealed secret")
	}
	return s.box.open(sealed)
}
