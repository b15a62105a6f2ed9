"""Generated protobuf modules (do not edit; run scripts/generate_protos.py)."""
