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
	// A key ring during a rotation: the new key first, the old behind it.
	ring := strings.Repeat("N", 64) + " " + gen
	if key, err := authKeyFromSecret(context.Background(), &fakeSecrets{value: &ring}, arn); err != nil || string(key) != ring {
		t.Fatalf("ring: %q %v", key, err)
	}
	short := "tooshort"
	shortInRing := gen + " short"
	for _, bad := range []*fakeSecrets{{value: &short}, {value: &shortInRing}, {value: nil}, {err: errors.New("AccessDeniedException")}} {
		if key, err := authKeyFromSecret(context.Background(), bad, arn); err == nil || key != nil {
			t.Errorf("%+v: key %q taken", bad, key)
		}
	}
}

// The engine key comes from $ENGINE_KEY (tests, LocalStack) or the secret
// $ENGINE_KEY_SECRET_ARN names; neither means no engine client, and a key
// too short stops the cold start.
func TestEngineKeyFromEnv(t *testing.T) {
	gen := strings.Repeat("k", 64)
	f := &fakeSecrets{value: &gen}
	sm := func() secretGetter { return f }
	t.Setenv(EnvEngineKey, "")
	t.Setenv(EnvEngineKeySecret, "")
	if key, err := engineKeyFromEnv(context.Background(), sm); key != nil || err != nil {
		t.Fatalf("neither set: %q %v", key, err)
	}
	t.Setenv(EnvEngineKeySecret, "arn:aws:secretsmanager:us-east-1:111122223333:secret:EngineKey-abc")
	if key, err := engineKeyFromEnv(context.Background(), sm); string(key) != gen || err != nil || len(f.asked) != 1 {
		t.Fatalf("from the secret: %q %v %v", key, err, f.asked)
	}
	t.Setenv(EnvEngineKey, "short")
	if _, err := engineKeyFromEnv(context.Background(), sm); err == nil {
		t.Fatal("a short key was taken")
	}
	t.Setenv(EnvEngineKey, gen+"direct")
	if key, err := engineKeyFromEnv(context.Background(), sm); string(key) != gen+"direct" || err != nil || len(f.asked) != 1 {
		t.Fatalf("direct: %q %v (asked %v)", key, err, f.asked)
	}
}
