// Package ddblocal gives tests a DynamoDB Local endpoint and clients
// configured for it. Tests anywhere in the module call Endpoint; it uses
// $DYNAMODB_ENDPOINT when that answers (the Makefile starts DynamoDB Local
// once for the whole run) and otherwise starts DynamoDB Local itself through
// localstack/dynamodb-local.sh, so a plain `go test ./...` works too.
package ddblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
)

// EnvEndpoint names the environment variable holding a running DynamoDB
// (Local) endpoint, e.g. http://127.0.0.1:8000.
const EnvEndpoint = "DYNAMODB_ENDPOINT"

// EnvPort names the variable that picks the port the launcher script uses.
const EnvPort = "DYNAMODB_PORT"

// Region is the region the local clients sign for; DynamoDB Local accepts any.
const Region = "us-east-1"

var (
	startOnce sync.Once
	startURL  string
	startErr  error
)

// Endpoint returns the URL of a DynamoDB Local that answers, starting one
// (once per test binary) when $DYNAMODB_ENDPOINT is unset or does not
// answer. It fails the test when none can be had: the DynamoDB contract
// tests are part of `make test` and must not silently disappear.
func Endpoint(t testing.TB) string {
	t.Helper()
	if ep := strings.TrimRight(os.Getenv(EnvEndpoint), "/"); ep != "" {
		if Reachable(ep) {
			return ep
		}
		t.Logf("ddblocal: %s=%s does not answer; starting DynamoDB Local", EnvEndpoint, ep)
	}
	startOnce.Do(func() { startURL, startErr = start() })
	if startErr != nil {
		t.Fatalf("ddblocal: cannot start DynamoDB Local: %v", startErr)
	}
	return startURL
}

// start runs the launcher script, which is idempotent and serialises
// concurrent callers (test binaries of several packages run in parallel).
func start() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	script := filepath.Join(root, "localstack", "dynamodb-local.sh")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", script, "start")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s start: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	ep := strings.TrimSpace(lastLine(stdout.String()))
	if ep == "" {
		return "", errors.New("launcher printed no endpoint")
	}
	if !Reachable(ep) {
		return "", fmt.Errorf("launcher reported %s but it does not answer", ep)
	}
	return ep, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// repoRoot walks up from the working directory (a test runs in its package
// directory) to the directory holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// Reachable reports whether a DynamoDB endpoint answers ListTables. The
// request is unsigned-but-shaped; DynamoDB Local does not check signatures.
func Reachable(endpoint string) bool {
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader("{}"))
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	client := &http.Client{Timeout: 2 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// Config returns an aws.Config for a local endpoint: static fake
// credentials, region us-east-1, the endpoint as base endpoint, response
// checksum validation only when required (DynamoDB Local's checksums cause
// warnings otherwise), and a retryer without the client-side retry quota so
// that heavy conflict tests are not cut short by the token bucket.
func Config(endpoint string) aws.Config {
	return aws.Config{
		Region:                     Region,
		Credentials:                credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint:               aws.String(endpoint),
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		Retryer: func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.RateLimiter = ratelimit.None
				o.MaxAttempts = 5
			})
		},
	}
}

// NewClient returns a DynamoDB client for a local endpoint (see Config),
// with DynamoDB's own CRC32 response validation disabled, and then opts
// applied (the handler tests add a middleware that watches the calls). ctx
// is unused (the configuration is static) but keeps the signature of
// callers that build clients with config.LoadDefaultConfig.
func NewClient(ctx context.Context, endpoint string, opts ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.NewFromConfig(Config(endpoint), append([]func(*dynamodb.Options){func(o *dynamodb.Options) {
		o.DisableValidateResponseChecksum = true
	}}, opts...)...)
}

// NewStreamsClient returns a DynamoDB Streams client for a local endpoint;
// DynamoDB Local serves the streams API on the same port.
func NewStreamsClient(ctx context.Context, endpoint string) *dynamodbstreams.Client {
	return dynamodbstreams.NewFromConfig(Config(endpoint))
}
