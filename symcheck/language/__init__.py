"""What a user writes, parsed once into typed objects: activations, unit forms, transformations, layer formulations."""
