package auth

// Exported hashing for other services of the process (the wallet's trade
// password): the same argon2id PHC strings and parameters as login passwords.

// HashSecret hashes a secret with argon2id at the service's parameters.
func (s *Service) HashSecret(secret string) (string, error) { return hashPassword(secret, s.pw) }

// CheckSecret compares a secret with a PHC string made by HashSecret (or a
// login password hash) in constant time.
func (s *Service) CheckSecret(encoded, secret string) bool { return checkPassword(encoded, secret) }
