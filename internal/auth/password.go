package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"tenger/internal/apperr"
)

// PasswordParams are the argon2id costs. New passwords use them; stored
// hashes carry their own parameters, so they can be raised later.
type PasswordParams struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultPasswordParams follow OWASP's argon2id baseline (19 MiB, 2 passes).
var DefaultPasswordParams = PasswordParams{MemoryKiB: 19 * 1024, Time: 2, Threads: 1}

const (
	saltLen = 16
	keyLen  = 32
	// maxPasswordBytes bounds the work an attacker can ask of argon2 (the
	// rule allows 32 characters; a sign-in with more cannot be right).
	maxPasswordBytes = 128
)

// checkPasswordRule enforces 8–32 characters with letters and digits.
func checkPasswordRule(pw string) error {
	n := utf8.RuneCountInString(pw)
	if !utf8.ValidString(pw) || n < 8 || n > 32 {
		return apperr.New(apperr.CodeWeakPassword)
	}
	var letter, digit bool
	for _, r := range pw {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return apperr.New(apperr.CodeWeakPassword)
		}
	}
	if !letter || !digit {
		return apperr.New(apperr.CodeWeakPassword)
	}
	return nil
}

// hashPassword returns an argon2id PHC string with a fresh random salt.
func hashPassword(pw string, p PasswordParams) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, p.Time, p.MemoryKiB, p.Threads, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// checkPassword compares pw with a PHC string in constant time.
func checkPassword(encoded, pw string) bool {
	if len(pw) > maxPasswordBytes {
		return false
	}
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var ver int
	var p PasswordParams
	if _, err := fmt.Sscanf(parts[2], "v=%d", &ver); err != nil || ver != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil ||
		p.Time == 0 || p.Threads == 0 || p.MemoryKiB == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
