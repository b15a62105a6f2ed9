"""Our .proto definitions against Cockatrice's own: same wire contract for every message we define.

Compiles the upstream ``.proto`` files (read-only, never copied) into a private descriptor pool and compares
every message of ours with the upstream one of the same name: field names, numbers, types, labels, defaults,
packing, extension numbers and enum values.  Skips when the Cockatrice sources are not on this machine
(``$COCKATRICE_PROTO_DIR`` overrides the default location).
"""

from __future__ import annotations

import importlib.resources

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from shared_paths import UPSTREAM_PROTOS as UPSTREAM

from cockatrice_ext.protocol import messages as pb
from cockatrice_ext.protocol.pb import common_pb2


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> descriptor_pool.DescriptorPool:
    protoc = pytest.importorskip("grpc_tools.protoc")
    if not UPSTREAM.is_dir():
        pytest.skip(
            "Cockatrice's .proto files not found: set COCKATRICE_SRC (an extracted Cockatrice source"
            " tree) or COCKATRICE_PROTO_DIR"
        )
    out = tmp_path_factory.mktemp("upstream") / "set.pb"
    well_known = importlib.resources.files("grpc_tools") / "_proto"
    files = sorted(p.name for p in UPSTREAM.glob("*.proto"))
    args = ["protoc", f"-I{UPSTREAM}", f"-I{well_known}", f"--descriptor_set_out={out}", "--include_imports"]
    assert protoc.main([*args, *files]) == 0
    pool = descriptor_pool.DescriptorPool()
    for proto_file in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file:
        pool.Add(proto_file)
    return pool


def _field_contract(field: FieldDescriptor) -> tuple[object, ...]:
    return (
        field.number,
        field.type,
        field.is_repeated,
        field.is_required,
        field.has_default_value and field.default_value,
        field.message_type.name if field.message_type else None,
        field.enum_type.name if field.enum_type else None,
        field.is_packed,
    )


def _differences(ours: Descriptor, theirs: Descriptor, path: str) -> list[str]:
    found = []
    for field in ours.fields:
        other = theirs.fields_by_name.get(field.name)
        if other is None or _field_contract(field) != _field_contract(other):
            found.append(f"{path}.{field.name}")
    their_extensions = {ext.name: ext for ext in theirs.extensions}
    for ext in ours.extensions:
        other = their_extensions.get(ext.name)
        if other is None or (other.number, other.containing_type.name) != (
            ext.number,
            ext.containing_type.name,
        ):
            found.append(f"{path} extension {ext.name}")
    for enum in ours.enum_types:
        other_enum = theirs.enum_types_by_name.get(enum.name)
        ours_values = {v.name: v.number for v in enum.values}
        if other_enum is None or ours_values != {v.name: v.number for v in other_enum.values}:
            found.append(f"{path} enum {enum.name}")
    for nested in ours.nested_types:
        other_nested = theirs.nested_types_by_name.get(nested.name)
        if other_nested is None:
            found.append(f"{path}.{nested.name} missing upstream")
        else:
            found += _differences(nested, other_nested, f"{path}.{nested.name}")
    return found


def test_every_message_matches_upstream(upstream: descriptor_pool.DescriptorPool) -> None:
    compared, differences = 0, []
    for name in pb.__all__:
        descriptor = getattr(getattr(pb, name), "DESCRIPTOR", None)
        if not isinstance(descriptor, Descriptor):
            continue
        theirs = upstream.FindMessageTypeByName(name)  # KeyError = a message upstream does not have
        differences += _differences(descriptor, theirs, name)
        compared += 1
    assert differences == []
    assert compared > 100


def test_card_attribute_enum_matches_upstream(upstream: descriptor_pool.DescriptorPool) -> None:
    ours = common_pb2.DESCRIPTOR.enum_types_by_name["CardAttribute"]
    theirs = upstream.FindEnumTypeByName("CardAttribute")
    assert {v.name: v.number for v in ours.values} == {v.name: v.number for v in theirs.values}
