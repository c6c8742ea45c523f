package platform

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

type fakeSecrets struct {
	value *string
	err   error
	asked []string
}

func (f *fakeSecrets) GetSecretValue(_ context.Context, in *secretsmanager.GetSecretValueInput, _ ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error) {
	f.asked = append(f.asked, *in.SecretId)
	if f.err != nil {
		return nil, f.err
	}
	return &secretsmanager.GetSecretValueOutput{SecretString: f.value}, nil
}

// The auth key comes from the secret the stack names; a secret that cannot
// be read, or is too short to be the generated key, stops the cold start.
func TestAuthKeyFromSecret(t *testing.T) {
	const arn = "arn:aws:secretsmanager:us-east-1:111122223333:secret:AuthKey-abc"
	gen := strings.Repeat("aB3", 21) + "x" // 64 characters, as the stack generates
	f := &fakeSecrets{value: &gen}
	key, err := authKeyFromSecret(context.Background(), f, arn)
	if err != nil || string(key) != gen || len(f.asked) != 1 || f.asked[0] != arn {
		t.Fatalf("key %q, err %v, asked %v", key, err, f.asked)
	}
	short := "tooshort"
	for _, bad := range []*fakeSecrets{{value: &short}, {value: nil}, {err: errors.New("AccessDeniedException")}} {
		if key, err := authKeyFromSecret(context.Background(), bad, arn); err == nil || key != nil {
			t.Errorf("%+v: key %q taken", bad, key)
		}
	}
}
