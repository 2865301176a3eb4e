"""What the tests (tests/) and the benchmarks (bench/) share, run from the repository
only: not installed with the wheel, and never imported by core/, bot/ or adapters/
(tests/test_architecture.py checks both)."""
