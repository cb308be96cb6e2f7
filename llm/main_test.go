package llm_test

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(chrome.Run(m)) }
