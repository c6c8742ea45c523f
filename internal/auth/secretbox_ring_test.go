package auth

import (
	"bytes"
	"testing"
)

// TestKeyRingRotation: a secret sealed under the old key opens once a new
// key is put first; new secrets are sealed under the new key, which the old
// ring alone cannot open; a binary key is one key whatever its bytes.
func TestKeyRingRotation(t *testing.T) {
	old := []byte("Oldkey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV")
	ring := []byte("Newkey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV " + string(old))
	before, err := NewSealer(old, "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	sealedOld := before.Seal("secret-1")
	after, err := NewSealer(ring, "tenger-apikey-v1")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := after.Open(sealedOld); err != nil || got != "secret-1" {
		t.Fatalf("old secret under the ring: %q %v", got, err)
	}
	sealedNew := after.Seal("secret-2")
	if got, err := after.Open(sealedNew); err != nil || got != "secret-2" {
		t.Fatalf("new secret: %q %v", got, err)
	}
	if _, err := before.Open(sealedNew); err == nil {
		t.Fatal("the old key alone opens a secret sealed under the new one")
	}
	newOnly, _ := NewSealer(ring[:64], "tenger-apikey-v1")
	if got, err := newOnly.Open(sealedNew); err != nil || got != "secret-2" {
		t.Fatalf("the new key alone: %q %v", got, err)
	}
	// The same key under another purpose opens nothing.
	other, _ := NewSealer(ring, "tenger-auth-totp-v1")
	if _, err := other.Open(sealedNew); err == nil {
		t.Fatal("another purpose opens it")
	}
	// A binary key with spaces in it is one key.
	bin := bytes.Repeat([]byte{0x20, 0xff, 0x41, 0x00}, 8)
	if r := KeyRing(bin); len(r) != 1 || !bytes.Equal(r[0], bin) {
		t.Fatalf("binary key split: %d", len(r))
	}
	if r := KeyRing([]byte(" a1  b2\n")); len(r) != 2 || string(r[0]) != "a1" {
		t.Fatalf("ring %q", r)
	}
}
